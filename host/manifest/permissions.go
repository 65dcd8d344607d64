package manifest

import (
	"fmt"
	"slices"
	"strings"
)

// Summary says in one line what the capabilities ask for, the way list, bundle install and
// the inspector show it to the operator for consent.
func (c Capabilities) Summary() string {
	fs := c.Filesystem
	if fs == "" {
		fs = "workspace"
	}
	if fs == "unrestricted" {
		fs = "unrestricted (unconfined)"
	}
	parts := []string{"filesystem " + fs}
	net := "network none"
	if c.Network {
		net = "network any"
		if len(c.Connect) > 0 {
			net = "network " + strings.Join(c.Connect, " ")
		}
	}
	parts = append(parts, net)
	if c.Process {
		parts = append(parts, "processes")
	}
	if len(c.Read) > 0 {
		parts = append(parts, "read "+strings.Join(c.Read, " "))
	}
	if len(c.Write) > 0 {
		parts = append(parts, "write "+strings.Join(c.Write, " "))
	}
	if len(c.Secrets) > 0 {
		parts = append(parts, "secrets "+strings.Join(c.Secrets, " "))
	}
	if len(c.Environment) > 0 {
		parts = append(parts, "environment "+strings.Join(c.Environment, " "))
	}
	b := c.Budgets
	for _, x := range []struct {
		name string
		v    int64
	}{{"memory_mb", b.MemoryMB}, {"cpu_seconds", b.CPUSeconds}, {"open_files", b.OpenFiles}, {"processes", b.Processes}} {
		if x.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", x.name, x.v))
		}
	}
	return strings.Join(parts, "; ")
}

var filesystemRank = map[string]int{"none": 0, "": 1, "workspace": 1, "unrestricted": 2}

// Widened lists what next asks for beyond prev: each entry names one permission gained.
// An empty list means next asks for nothing more (it may ask for less).
func Widened(prev, next Capabilities) []string {
	var out []string
	if filesystemRank[next.Filesystem] > filesystemRank[prev.Filesystem] {
		out = append(out, fmt.Sprintf("filesystem %s → %s", orDefault(prev.Filesystem), orDefault(next.Filesystem)))
	}
	if next.Process && !prev.Process {
		out = append(out, "process false → true")
	}
	if next.Network && !prev.Network {
		out = append(out, "network false → true")
	}
	// Connect only narrows "network any": with prev's list empty and network on, nothing
	// new is reachable.
	if next.Network && prev.Network && len(prev.Connect) > 0 {
		if len(next.Connect) == 0 {
			out = append(out, "connect "+strings.Join(prev.Connect, " ")+" → any destination")
		}
		out = append(out, added("connect", prev.Connect, next.Connect)...)
	}
	out = append(out, added("read", prev.Read, next.Read)...)
	out = append(out, added("write", prev.Write, next.Write)...)
	out = append(out, added("secrets", prev.Secrets, next.Secrets)...)
	out = append(out, added("environment", prev.Environment, next.Environment)...)
	pb, nb := prev.Budgets, next.Budgets
	for _, x := range []struct {
		name       string
		prev, next int64
	}{{"memory_mb", pb.MemoryMB, nb.MemoryMB}, {"cpu_seconds", pb.CPUSeconds, nb.CPUSeconds},
		{"open_files", pb.OpenFiles, nb.OpenFiles}, {"processes", pb.Processes, nb.Processes}} {
		if x.prev > 0 && (x.next == 0 || x.next > x.prev) {
			out = append(out, fmt.Sprintf("budgets.%s %d → %s", x.name, x.prev, budgetText(x.next)))
		}
	}
	return out
}

func added(key string, prev, next []string) []string {
	var out []string
	for _, n := range next {
		if !slices.Contains(prev, n) {
			out = append(out, fmt.Sprintf("%s + %s", key, n))
		}
	}
	return out
}

func orDefault(fs string) string {
	if fs == "" {
		return "workspace"
	}
	return fs
}

func budgetText(v int64) string {
	if v == 0 {
		return "host default"
	}
	return fmt.Sprint(v)
}
