package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/octet-kit/octet/host/durable"
	"github.com/octet-kit/octet/host/store"
)

// bundleIdentity is the trusted identity of the bundle root/name (manifest.Identity's
// form), computed before the directory goes.
func bundleIdentity(root, name string) string {
	dir := filepath.Join(root, name)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return name + "@" + dir
}

// removeDurableState deletes what the host kept for an uninstalled extension in the state
// directory: its durable state directory and its KV rows (with the kv_version). A state
// directory without a store has no KV to forget.
func removeDurableState(stateDir, name, identity string, stdout io.Writer) error {
	if stateDir == "" {
		return nil
	}
	had, err := durable.Remove(stateDir, name, identity)
	if err != nil {
		return err
	}
	var rows int64
	if _, err := os.Stat(filepath.Join(stateDir, store.DatabaseFile)); err == nil {
		st, err := store.Open(context.Background(), stateDir)
		if err != nil {
			return err
		}
		defer st.Close()
		if rows, err = st.KVForget(context.Background(), identity); err != nil {
			return err
		}
	}
	if had || rows > 0 {
		fmt.Fprintf(stdout, "removed its durable state in %s (state directory: %v, KV entries: %d)\n", stateDir, had, rows)
	}
	return nil
}
