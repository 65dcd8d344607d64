package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
)

// peerIsUs checks the connecting process's uid (SO_PEERCRED): the socket's 0600 mode already
// keeps others out; this also holds if the mode was changed under us.
func peerIsUs(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return errors.New("not a unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("peer credentials: %v", cerr)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("uid %d may not control a host run by uid %d", cred.Uid, os.Getuid())
	}
	return nil
}

// ownedByUs refuses a path another user owns.
func ownedByUs(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s is owned by uid %d, not this user", path, st.Uid)
	}
	return nil
}
