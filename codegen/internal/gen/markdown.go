package gen

import (
	"sort"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

func emitMarkdown(m *ir.Model, out Output) error { return nil }

func sortStrings(s []string) { sort.Strings(s) }
