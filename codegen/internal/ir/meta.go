package ir

import (
	"fmt"
	"io/fs"

	"github.com/octet-kit/octet/schema"
)

// MetaValidate compiles every schema file in dir with the generic validator (which checks each
// against the draft 2020-12 metaschema and resolves every $ref), so codegen never runs on a
// schema the oracle would reject.
func MetaValidate(dir fs.FS) error {
	c, err := schema.NewCompiler(dir)
	if err != nil {
		return err
	}
	paths, err := fs.Glob(dir, "*.schema.json")
	if err != nil {
		return err
	}
	for _, p := range paths {
		if _, err := c.Compile(schema.BaseURL + p); err != nil {
			return fmt.Errorf("schema/%s: %w", p, err)
		}
	}
	return nil
}
