# A DROP TABLE of a model interrupted while it reads the fit table fails
# whole: the model and k_fit both stay (the interrupt was read as "a
# user's own table", the DROP succeeded and left k_fit behind).
import sqlite3
import ksql


def test_drop_interrupted_while_checking_the_fit_table():
    c = sqlite3.connect(":memory:", isolation_level=None)
    ksql.load(c)
    c.execute("CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT)")
    c.executemany("INSERT INTO pts VALUES (?, ?)", [(i, f"[{i % 7 * 0.3}, {i % 5 * 0.4}]") for i in range(30)])
    c.execute("CREATE VIRTUAL TABLE k USING kpca(table=pts, id=id, column=v, kernel='gauss(sigma=1)', components=2)")
    armed = [True]

    def interrupt_on_fit_read(op, arg1, arg2, db, trigger):
        # An interrupt arriving just as DROP reads k_fit, deterministically.
        if armed[0] and op == sqlite3.SQLITE_READ and arg1 == "k_fit":
            armed[0] = False
            c.interrupt()
        return sqlite3.SQLITE_OK

    c.set_authorizer(interrupt_on_fit_read)
    try:
        c.execute("DROP TABLE k")
        dropped = True
    except sqlite3.Error:
        dropped = False
    c.set_authorizer(None)
    names = sorted(r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE name IN ('k', 'k_fit')"))
    assert names == ([] if dropped else ["k", "k_fit"]), f"DROP {'succeeded' if dropped else 'failed'}, left {names}"
