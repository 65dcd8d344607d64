package protocol

import "strings"

// FormatMessage fills a registry message template (the Message* constants): each
// "{key}" is replaced by its value, given as key, value pairs. Every SDK fills the same
// templates the same way, so one fault reads the same in every language.
func FormatMessage(template string, kv ...string) string {
	pairs := make([]string, 0, len(kv))
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, "{"+kv[i]+"}", kv[i+1])
	}
	return strings.NewReplacer(pairs...).Replace(template)
}
