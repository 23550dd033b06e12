package vtab

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// A pass proves landmarks read by id only by meeting every one of them
// with the same values, bit for bit and type for type.
func TestLandmarkReadCheck(t *testing.T) {
	read := func() *landmarkRead {
		return &landmarkRead{marks: []int{1, 4}, vals: [][]any{{[]byte{1, 2}}, {"[1, 2]"}}}
	}
	rows := map[int][]any{
		0: {int64(10), []byte{9}},
		1: {int64(11), []byte{1, 2}},
		4: {int64(14), "[1, 2]"},
	}
	for _, tc := range []struct {
		name string
		seen []int
		edit func(map[int][]any)
		ok   bool
	}{
		{"all met", []int{0, 1, 2, 3, 4, 5}, nil, true},
		{"pass ended early", []int{0, 1, 2}, nil, false},
		{"a landmark skipped", []int{0, 2, 3, 4}, nil, false},
		{"other bytes", []int{0, 1, 4}, func(r map[int][]any) { r[1] = []any{int64(11), []byte{1, 3}} }, false},
		{"text for a blob", []int{0, 1, 4}, func(r map[int][]any) { r[1] = []any{int64(11), "\x01\x02"} }, false},
		{"NULL", []int{0, 1, 4}, func(r map[int][]any) { r[4] = []any{int64(14), nil} }, false},
	} {
		rs := map[int][]any{}
		for k, v := range rows {
			rs[k] = v
		}
		if tc.edit != nil {
			tc.edit(rs)
		}
		r := read()
		for _, o := range tc.seen {
			v := rs[o]
			if v == nil {
				v = []any{int64(o), []byte{0}}
			}
			r.see(o, v)
		}
		if r.ok() != tc.ok {
			t.Errorf("%s: ok() = %v, want %v", tc.name, r.ok(), tc.ok)
		}
	}
	for _, tc := range []struct {
		a, b any
		same bool
	}{
		{int64(1), int64(1), true}, {int64(1), 1.0, false}, {1.0, 1.0, true},
		{0.0, math.Copysign(0, -1), false}, {"a", "a", true}, {"a", []byte("a"), false},
		{[]byte{}, []byte(nil), true}, {nil, nil, true}, {nil, int64(0), false},
	} {
		if got := sameValue(tc.a, tc.b); got != tc.same {
			t.Errorf("sameValue(%#v, %#v) = %v", tc.a, tc.b, got)
		}
	}
}

// A landmark decoded from a borrowed row's float32 BLOB is a view of its
// block's arena, which the next block overwrites: detach copies it.
func TestDetachArenaView(t *testing.T) {
	spec, err := kernels.Parse("gauss(sigma=2)")
	if err != nil {
		t.Fatal(err)
	}
	f := &fitting{src: &source{spec: spec}}
	b := &passBlock{kinds: []host.Kind{host.Blob}, vals: []any{nil}, idx: []int{0}}
	for _, x := range []float32{1, 2, 3} {
		b.arena = binary.LittleEndian.AppendUint32(b.arena, math.Float32bits(x))
	}
	b.ends = []int{len(b.arena)}
	o, err := f.src.object(b.object(0))
	if err != nil {
		t.Fatal(err)
	}
	kept := f.detach(o)
	clear(b.arena) // the block's next rows
	if got := kept.Vec.At(2); got != 3 {
		t.Errorf("the detached landmark's last value is %v after its block was reused, want 3", got)
	}
	if o.Vec.At(2) != 0 {
		t.Fatal("the decoded object is not a view of the arena: this test no longer tests detach")
	}
}
