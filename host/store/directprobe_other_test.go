//go:build !linux

package store

import (
	"errors"
	"os"
)

func openDirect(string) (*os.File, error) { return nil, errors.ErrUnsupported }
