package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// userHZ is the unit of /proc's CPU times, fixed at 100 for user space on Linux.
const userHZ = 100

// groupUsage is the resident memory and the CPU time used so far by every process in
// process group pgid (the extension and whatever it started: a launcher script, an
// interpreter). ok is false when /proc cannot be read.
func groupUsage(pgid int) (u usage, ok bool) {
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil || len(dirs) == 0 {
		return usage{}, false
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
		if len(fields) < 13 || string(fields[2]) != strconv.Itoa(pgid) {
			continue
		}
		// utime and stime, fields 14 and 15 of stat, in clock ticks.
		for _, f := range fields[11:13] {
			if ticks, err := strconv.ParseUint(string(f), 10, 64); err == nil {
				u.CPU += time.Duration(ticks) * time.Second / userHZ
			}
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
		u.RSS += pages * page
	}
	return u, true
}
