package process

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// tracking says whether this platform can enumerate descendants (Linux: /proc).
const tracking = true

// A stop scans the whole process table several times (family.go), and N hosts stopping
// at once each see every other's processes, so a scan's cost per process is kept to three
// system calls and no allocation: the directory is read with getdents into one buffer,
// and each stat file is opened by a NUL-terminated path built in a reused buffer.

// statBuf holds one /proc/<pid>/stat path and its contents. A stat line is about 300
// bytes; the command name is at most 64.
type statBuf struct {
	path [32]byte
	data [1024]byte
}

// readTable reads /proc/<pid>/stat of every process. Processes that vanish while it reads
// are simply absent.
func readTable() table {
	t := table{}
	fd, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return t
	}
	defer syscall.Close(fd)
	var sb statBuf
	dents := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(dents)
	for {
		n, err := syscall.Getdents(fd, *dents)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return t
		}
		// linux_dirent64: ino u64, off s64, reclen u16, type u8, name NUL-terminated.
		for off := 0; off+19 < n; {
			d := *dents
			reclen := int(*(*uint16)(unsafe.Pointer(&d[off+16])))
			if reclen == 0 {
				break
			}
			if pid, ok := atoiName(d[off+19 : off+reclen]); ok {
				if p, ok := sb.readStat(pid); ok {
					t[pid] = p
				}
			}
			off += reclen
		}
	}
}

// direntBufs are getdents buffers, one per scan in progress.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// atoiName parses a NUL-terminated directory entry name that is all digits.
func atoiName(name []byte) (int, bool) {
	pid := 0
	for i, c := range name {
		if c == 0 {
			return pid, i > 0
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		pid = pid*10 + int(c-'0')
	}
	return 0, false
}

// readStat parses /proc/<pid>/stat.
func readStat(pid int) (procInfo, bool) {
	var sb statBuf
	return sb.readStat(pid)
}

func (sb *statBuf) readStat(pid int) (procInfo, bool) {
	n := sb.procPath(pid, "stat")
	if n < 0 {
		return procInfo{}, false
	}
	data, ok := readSmall(sb.path[:n+1], sb.data[:])
	if !ok {
		return procInfo{}, false
	}
	return parseStat(pid, data)
}

// procPath writes "/proc/<pid>/<file>\x00" into sb.path and returns its length without the
// NUL, or -1 if it does not fit.
func (sb *statBuf) procPath(pid int, file string) int {
	b := append(sb.path[:0], "/proc/"...)
	var digits [20]byte
	i := len(digits)
	for v := pid; ; v /= 10 {
		i--
		digits[i] = byte('0' + v%10)
		if v < 10 {
			break
		}
	}
	b = append(b, digits[i:]...)
	b = append(b, '/')
	b = append(b, file...)
	if len(b) >= len(sb.path) {
		return -1
	}
	sb.path[len(b)] = 0
	return len(b)
}

// readSmall reads the whole file at the NUL-terminated path into buf, reporting false if it
// cannot be read or does not fit (a stat line always fits).
func readSmall(path, buf []byte) ([]byte, bool) {
	fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&path[0])),
		uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
	if e != 0 {
		return nil, false
	}
	defer syscall.Close(int(fd))
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(int(fd), buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if m == 0 {
			return buf[:n], true
		}
		n += m
	}
	return nil, false
}

// atFDCWD is openat's directory argument, which an absolute path ignores; a variable,
// since the constant -100 does not convert to uintptr.
var atFDCWD = -100

// parseStat parses a stat line. The command name (field 2) is in parentheses and may
// itself contain spaces and parentheses, so fields are counted from the last ')'.
func parseStat(pid int, data []byte) (procInfo, bool) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procInfo{}, false
	}
	// Fields from 3 (state): ppid is field 4, pgrp 5, session 6, starttime 22,
	// env_start 50 and env_end 51 (Linux 3.5+; 0 when the reader may not see them).
	var f [52]uint64
	var state byte
	field, in := 2, false
	for _, c := range data[i+1:] {
		if c == ' ' || c == '\n' {
			in = false
			continue
		}
		if !in {
			in = true
			field++
			if field == 3 {
				state = c
				continue
			}
		}
		if field > 3 && field < len(f) && c >= '0' && c <= '9' {
			f[field] = f[field]*10 + uint64(c-'0')
		}
	}
	if field < 22 {
		return procInfo{}, false
	}
	return procInfo{Ident: Ident{Pid: pid, Start: f[22]}, ppid: int(f[4]), pgid: int(f[5]), sid: int(f[6]),
		zombie: state == 'Z' || state == 'X', envStart: f[50], envEnd: f[51]}, true
}

// identOf is the Ident of a running pid (Start 0 if it cannot be read).
func identOf(pid int) Ident {
	p, _ := readStat(pid)
	return Ident{Pid: pid, Start: p.Start}
}

// readScratchEnv returns the OCTET_EXTENSION_SCRATCH entries of the process's initial
// environment ("NAME=value", normally none or one), and false if it cannot be read:
// processes of other users are unreadable and never match.
func readScratchEnv(pid int) ([]string, bool) {
	var sb statBuf
	n := sb.procPath(pid, "environ")
	if n < 0 {
		return nil, false
	}
	data, err := os.ReadFile(string(sb.path[:n]))
	if err != nil || len(data) == 0 {
		return nil, false // empty: a kernel thread, or a process in exec; ask again next time
	}
	var out []string
	for len(data) > 0 {
		e := data
		if j := bytes.IndexByte(data, 0); j >= 0 {
			e, data = data[:j], data[j+1:]
		} else {
			data = nil
		}
		if bytes.HasPrefix(e, scratchVar) {
			out = append(out, string(e))
		}
	}
	return out, true
}

var scratchVar = []byte("OCTET_EXTENSION_SCRATCH=")

// bootID tells boots apart, so a record from before a reboot never matches a process.
func bootID() string {
	data, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(data))
}
