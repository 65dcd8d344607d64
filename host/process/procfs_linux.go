package process

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// tracking says whether this platform can enumerate descendants (Linux: /proc).
const tracking = true

// readTable reads /proc/<pid>/stat of every process. Processes that vanish while it reads
// are simply absent.
func readTable() table {
	t := table{}
	d, err := os.Open("/proc")
	if err != nil {
		return t
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if p, ok := readStat(pid); ok {
			t[pid] = p
		}
	}
	return t
}

// readStat parses /proc/<pid>/stat. The command name (field 2) is in parentheses and may
// itself contain spaces and parentheses, so fields are counted from the last ')'.
func readStat(pid int) (procInfo, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procInfo{}, false
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 (state): ppid is field 4, pgrp 5, session 6, starttime 22.
	if len(f) < 20 {
		return procInfo{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	pgid, _ := strconv.Atoi(f[2])
	sid, _ := strconv.Atoi(f[3])
	start, _ := strconv.ParseUint(f[19], 10, 64)
	return procInfo{Ident: Ident{Pid: pid, Start: start}, ppid: ppid, pgid: pgid, sid: sid, zombie: f[0] == "Z" || f[0] == "X"}, true
}

// identOf is the Ident of a running pid (Start 0 if it cannot be read).
func identOf(pid int) Ident {
	p, _ := readStat(pid)
	return Ident{Pid: pid, Start: p.Start}
}

// environHas reports whether the process's initial environment holds the entry kv
// ("NAME=value") or, with prefix set, an entry starting with kv. Processes of other users
// are unreadable and never match.
func environHas(pid int, kv string, prefix bool) (string, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false
	}
	for _, e := range bytes.Split(data, []byte{0}) {
		if s := string(e); s == kv || (prefix && strings.HasPrefix(s, kv)) {
			return s, true
		}
	}
	return "", false
}

// bootID tells boots apart, so a record from before a reboot never matches a process.
func bootID() string {
	data, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(data))
}
