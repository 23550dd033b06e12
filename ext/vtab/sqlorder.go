package vtab

import (
	"bytes"
	"math"
	"slices"
	"strings"
)

// compareValues orders two SQL values as SQLite's ORDER BY does with the
// BINARY collation: NULL, then numbers (INTEGER and REAL by value, so 1
// and 1.0 are equal), then TEXT (by bytes), then BLOB (by bytes).
func compareValues(a, b any) int {
	ca, cb := storageClass(a), storageClass(b)
	if ca != cb {
		return ca - cb
	}
	switch x := a.(type) {
	case int64, float64:
		return compareNumbers(x, b)
	case string:
		return strings.Compare(x, b.(string))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	}
	return 0
}

// storageClass ranks a value's type in SQLite's sort order.
func storageClass(v any) int {
	switch v.(type) {
	case nil:
		return 0
	case int64, float64:
		return 1
	case string:
		return 2
	}
	return 3
}

// compareNumbers compares number a with number b exactly: an int64 is
// not rounded to float64 when the two differ only past 2⁵³.
func compareNumbers(a any, b any) int {
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	switch {
	case aInt && bInt:
		return cmpOrdered(ai, bi)
	case aInt:
		return -compareFloatInt(b.(float64), ai)
	case bInt:
		return compareFloatInt(a.(float64), bi)
	}
	af, bf := a.(float64), b.(float64)
	switch {
	case math.IsNaN(af) || math.IsNaN(bf): // SQLite stores NaN as NULL; never here
		return 0
	}
	return cmpOrdered(af, bf)
}

// compareFloatInt compares f with i without losing i's low bits.
func compareFloatInt(f float64, i int64) int {
	switch {
	case f < -9.223372036854775808e18:
		return -1
	case f >= 9.223372036854775808e18:
		return 1
	}
	t := math.Trunc(f)
	if c := cmpOrdered(int64(t), i); c != 0 {
		return c
	}
	return cmpOrdered(f-t, 0)
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortDistinct sorts values in SQLite's order and keeps the first of each
// run of equal ones.
func sortDistinct(vals []any) []any {
	slices.SortStableFunc(vals, compareValues)
	return slices.CompactFunc(vals, func(a, b any) bool { return compareValues(a, b) == 0 })
}

// distinctValues is sortDistinct of a copy of vals, found without the
// copy while there are few: a million labels of ten classes were a
// million-entry array, grown in steps, to sort.
func distinctValues(vals []any) []any {
	var set []any
	for _, v := range vals {
		i, found := slices.BinarySearchFunc(set, v, compareValues)
		if found {
			continue
		}
		if len(set) == 1024 {
			return slices.Clip(sortDistinct(slices.Clone(vals)))
		}
		set = slices.Insert(set, i, v)
	}
	return set
}

// searchValue returns the index of v in sorted, which must hold it.
func searchValue(sorted []any, v any) int {
	i, _ := slices.BinarySearchFunc(sorted, v, compareValues)
	return i
}
