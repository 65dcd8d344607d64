package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// systemRead is what every runtime reads: the system's programs and libraries, the few files
// of /etc the C library and TLS need, and the namespace's own /proc. The rest of /etc (and so
// /etc/shadow) stays out.
var systemRead = []string{
	"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/opt",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/timezone",
	"/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/resolv.conf", "/etc/hosts",
	"/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf", "/etc/passwd", "/etc/group",
	"/etc/os-release", "/etc/alternatives", "/etc/mime.types", "/etc/locale.alias",
	"/proc", "/sys/devices/system/cpu", "/sys/fs/cgroup", "/dev/urandom", "/dev/random",
}

// runtimePaths finds the runtime an entrypoint needs, beyond systemRead: the directory of
// the entrypoint, the interpreter its "#!" line names (through env and symlinks) with its
// installation prefix, and each directory of PATH with its prefix (".../bin" →  "..."), so
// a launcher that runs python3, node or a venv's interpreter from PATH finds its libraries.
func runtimePaths(dir, exe, hostPath string) []string {
	out := append([]string{}, systemRead...)
	add := func(p string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		out = append(out, p)
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			out = append(out, real)
			out = append(out, prefixOf(real)...)
		}
		out = append(out, prefixOf(p)...)
	}
	var pathDirs []string
	for _, d := range filepath.SplitList(hostPath) {
		if filepath.IsAbs(d) {
			pathDirs = append(pathDirs, d)
			add(d)
		}
	}
	if exe != "" {
		add(filepath.Dir(exe))
		if interp := shebang(exe); interp != "" {
			if filepath.Base(interp) == "env" {
				interp = ""
				if name := shebangArg(exe); name != "" {
					interp = lookPath(name, pathDirs)
				}
			}
			if interp != "" {
				add(interp)
			}
		}
	}
	_ = dir
	return out
}

// prefixOf returns the installation prefix of a binary's directory: "/x/venv/bin" → "/x/venv".
func prefixOf(p string) []string {
	fi, err := os.Stat(p)
	if err == nil && !fi.IsDir() {
		p = filepath.Dir(p)
	}
	switch filepath.Base(p) {
	case "bin", "sbin", "shims":
		if parent := filepath.Dir(p); parent != "/" {
			return []string{parent}
		}
	}
	return nil
}

// shebang returns the interpreter of a "#!" script, or "".
func shebang(exe string) string {
	f := shebangFields(exe)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// shebangArg returns the first argument of the "#!" line ("python3" of "/usr/bin/env python3").
func shebangArg(exe string) string {
	f := shebangFields(exe)
	for _, a := range f[min(1, len(f)):] {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

func shebangFields(exe string) []string {
	fh, err := os.Open(exe)
	if err != nil {
		return nil
	}
	defer fh.Close()
	line, err := bufio.NewReaderSize(fh, 256).ReadString('\n')
	if err != nil && line == "" {
		return nil
	}
	if !strings.HasPrefix(line, "#!") {
		return nil
	}
	return strings.Fields(strings.TrimPrefix(line, "#!"))
}

func lookPath(name string, dirs []string) string {
	if strings.Contains(name, "/") {
		return name
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
