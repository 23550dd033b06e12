package kernels

import (
	"errors"

	"github.com/ksql/ksql/internal/xfloat"
)

// String kernel kinds and units as the spec language names them.
const (
	strSubseq = iota
	strSSK
	strNgram
)

const (
	unitChar = 0
	unitWord = 1
)

// strParams are a string kernel's parameters as parsed from a spec.
type strParams struct {
	kind   int
	p      int // subseq: 0 for all lengths
	lambda float64
	n      int
	unit   int
}

type strSeq struct{}

type strWorkspace struct{}

func decodeString(s string, unit int) strSeq { return strSeq{} }

func evalString(p strParams, a, b *Object, ws *Workspace) (xfloat.F, error) {
	return xfloat.F{}, errors.New("string kernels are not implemented yet")
}
