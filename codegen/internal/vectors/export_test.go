package vectors_test

import (
	"github.com/octet-kit/octet/codegen/internal/ir"
	"github.com/octet-kit/octet/codegen/internal/vectors"
)

var vectorsSynth = func(m *ir.Model) ([]vectors.Vector, error) { return vectors.Synthesize(m) }
