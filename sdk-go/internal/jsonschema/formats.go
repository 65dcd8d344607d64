package jsonschema

import (
	"regexp"
	"strconv"
	"strings"
)

// Format assertions, off by default: in draft 2020-12 format is an annotation
// unless the format-assertion vocabulary is on (or the caller asks). Only the
// formats tool schemas commonly use are checked, as in the TypeScript SDK; an
// unknown format passes.

func checkFormat(format string, v any) bool {
	s, ok := v.(string)
	if !ok {
		return true
	}
	switch format {
	case "date":
		return validDate(s)
	case "time":
		return validTime(s)
	case "date-time":
		t := strings.IndexAny(s, "tT")
		return t == 10 && validDate(s[:10]) && validTime(s[11:])
	case "email":
		at := strings.IndexByte(s, '@')
		return at > 0 && at == strings.LastIndexByte(s, '@') && at < len(s)-1 && !strings.ContainsAny(s, " \t\r\n")
	case "uuid":
		return validUUID(s)
	case "ipv4":
		return validIPv4(s)
	case "regex":
		_, err := regexp.Compile(s)
		return err == nil
	}
	return true
}

func digitsAt(s string, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	v, _ := strconv.Atoi(s[i : i+n])
	return v, true
}

func validDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digitsAt(s, 0, 4)
	m, ok2 := digitsAt(s, 5, 2)
	d, ok3 := digitsAt(s, 8, 2)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && (y%4 == 0 && y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

func validTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digitsAt(s, 0, 2)
	mi, ok2 := digitsAt(s, 3, 2)
	sec, ok3 := digitsAt(s, 6, 2)
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if strings.HasPrefix(rest, ".") {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	offset := 0
	switch {
	case rest == "z" || rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digitsAt(rest, 1, 2)
		om, ok2 := digitsAt(rest, 4, 2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		offset = oh*60 + om
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return false
	}
	if sec == 60 { // a leap second is 23:59:60 in UTC
		utc := ((h*60+mi-offset)%1440 + 1440) % 1440
		return utc == 23*60+59
	}
	return true
}

func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !isHex(c) {
			return false
		}
	}
	return true
}

func validIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		n, ok := digitsAt(p, 0, len(p))
		if !ok || len(p) == 0 || len(p) > 3 || n > 255 || len(p) > 1 && p[0] == '0' {
			return false
		}
	}
	return true
}
