package process

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Readable turns stderr lines into lines a person reads: a JSON log record (what the Go,
// Python and TypeScript SDKs write: "msg" plus fields) becomes `LEVEL msg key=value ...`,
// and a multi-line field (a Python traceback, a Go stack) follows it line by line,
// indented, instead of as one escaped string. Any other line is kept as it is.
func Readable(lines []string) []string {
	var out []string
	for _, line := range lines {
		out = append(out, readableLine(line)...)
	}
	return out
}

func readableLine(line string) []string {
	trimmed := strings.TrimSpace(line)
	if !strings.HasPrefix(trimmed, "{") {
		return []string{line}
	}
	var rec map[string]any
	if json.Unmarshal([]byte(trimmed), &rec) != nil {
		return []string{line}
	}
	msg, ok := rec["msg"].(string)
	if !ok {
		return []string{line}
	}
	head := msg
	if level, ok := rec["level"].(string); ok {
		head = strings.ToUpper(level) + " " + msg
	}
	keys := make([]string, 0, len(rec))
	for k := range rec {
		switch k {
		case "msg", "level", "ts", "time":
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var long []string
	for _, k := range keys {
		if s, ok := rec[k].(string); ok && strings.Contains(s, "\n") {
			long = append(long, k)
			continue
		}
		var v string
		if s, ok := rec[k].(string); ok {
			v = s
			if strings.ContainsAny(s, " \t\"=") {
				v = fmt.Sprintf("%q", s)
			}
		} else {
			b, _ := json.Marshal(rec[k])
			v = string(b)
		}
		head += " " + k + "=" + v
	}
	out := []string{head}
	for _, k := range long {
		out = append(out, "  "+k+":")
		for _, l := range strings.Split(strings.TrimRight(rec[k].(string), "\n"), "\n") {
			out = append(out, "    "+l)
		}
	}
	return out
}
