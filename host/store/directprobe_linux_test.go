package store

import (
	"os"
	"syscall"
)

// openDirect opens name for writing with O_DIRECT set by open(2) itself, independent of
// setDirect (the code under test), so a broken setDirect cannot make the test expect no
// direct writes.
func openDirect(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|syscall.O_DIRECT, 0)
}
