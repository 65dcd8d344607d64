package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// groupRSS is the resident memory of every process in process group pgid (the
// extension and whatever it started: a launcher script, an interpreter), in bytes.
// ok is false when /proc cannot be read.
func groupRSS(pgid int) (total uint64, ok bool) {
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil || len(dirs) == 0 {
		return 0, false
	}
	page := uint64(os.Getpagesize())
	for _, dir := range dirs {
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		// The command name (field 2) is parenthesised and may hold spaces; the fields
		// after its closing parenthesis are state, ppid, pgrp, ...
		end := bytes.LastIndexByte(stat, ')')
		if end < 0 {
			continue
		}
		fields := bytes.Fields(stat[end+1:])
		if len(fields) < 3 || string(fields[2]) != strconv.Itoa(pgid) {
			continue
		}
		statm, err := os.ReadFile(filepath.Join(dir, "statm"))
		if err != nil {
			continue
		}
		f := bytes.Fields(statm)
		if len(f) < 2 {
			continue
		}
		pages, err := strconv.ParseUint(string(f[1]), 10, 64)
		if err != nil {
			continue
		}
		total += pages * page
	}
	return total, true
}
