//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
	"syscall"
)

// Available reports that only Linux confines extensions.
func Available() error { return &Unavailable{Missing: "Linux (Landlock, namespaces, seccomp)"} }

// Launch is not available off Linux.
type Launch struct{}

// Wrap always fails off Linux.
func Wrap(*exec.Cmd, *Policy) (*Launch, error) { return nil, Available() }

func (*Launch) Started()                                 {}
func (*Launch) Ready() error                             { return errors.New("no sandbox") }
func (*Launch) Status() (ws syscall.WaitStatus, ok bool) { return 0, false }
func (*Launch) Close()                                   {}
func (*Launch) Admit(int) error                          { return errors.New("no sandbox") }

// StartLandlocked always fails off Linux.
func StartLandlocked(*exec.Cmd, *Policy) error { return Available() }
