//go:build !linux

package main

import (
	"errors"
	"os"
)

// isTerminal is false where the host does not read terminal attributes: --ask auto then
// never asks (--ask stdin still does, without secrets).
func isTerminal(*os.File) bool { return false }

func setEcho(*os.File, bool) error {
	return errors.New("echo control is not supported on this platform")
}
