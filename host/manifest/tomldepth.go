package manifest

import (
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// MaxDepth is MAX_JSON_DEPTH: a manifest is JSON once decoded, and nests no deeper than
// any other document (the root table is level 1).
const MaxDepth = protocol.MaxJSONDepth

// DepthError is a TOML document nested past MaxDepth, with the place it went too deep.
type DepthError struct {
	Line, Column int
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("line %d, column %d: nesting deeper than %d levels (MAX_JSON_DEPTH)", e.Line, e.Column, MaxDepth)
}

// CheckTOMLDepth scans TOML text, before any decoder builds it, and reports the first place
// where its tables, arrays of tables, dotted keys, arrays and inline tables nest past
// MaxDepth. It keeps one level per open bracket and stops at the first excess, so its
// memory is bounded by MaxDepth whatever the input; it only counts, and leaves every other
// judgement (including of malformed text) to the decoder that runs after it.
func CheckTOMLDepth(data []byte) error {
	s := depthScan{data: data, line: 1, lineStart: 0}
	return s.run()
}

type depthScan struct {
	data            []byte
	i               int
	line, lineStart int
	table           int    // level of the current [table] (root: 1)
	open            []int  // levels of the open arrays and inline tables
	inArray         []bool // whether each open bracket is an array
	keyDots         int    // dots in the key being read
	valueBase       int    // level that holds the value after the last '='
	inKey           bool   // reading a key (line start, or after '{' or ',' in an inline table)
}

func (s *depthScan) fail() error {
	return &DepthError{Line: s.line, Column: s.i - s.lineStart + 1}
}

func (s *depthScan) run() error {
	s.table, s.inKey = 1, true
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '\n':
			s.line++
			s.lineStart = s.i + 1
			if len(s.open) == 0 {
				s.inKey, s.keyDots = true, 0
			}
		case c == '#':
			for s.i < len(s.data) && s.data[s.i] != '\n' {
				s.i++
			}
			continue
		case c == '"' || c == '\'':
			s.skipString(c)
			continue
		case c == '[' && len(s.open) == 0 && s.inKey:
			if err := s.header(); err != nil {
				return err
			}
			continue
		case c == '.' && s.inKey:
			s.keyDots++
		case c == '=' && s.inKey:
			s.valueBase = s.current() + s.keyDots
			if s.valueBase > MaxDepth { // a.b.c = 1 makes a table of every part but the last
				return s.fail()
			}
			s.inKey, s.keyDots = false, 0
		case c == '[' || c == '{':
			level := s.valueBase + 1
			if n := len(s.open); n > 0 && s.inArray[n-1] {
				level = s.open[n-1] + 1
			}
			if level > MaxDepth {
				return s.fail()
			}
			s.open = append(s.open, level)
			s.inArray = append(s.inArray, c == '[')
			s.inKey = c == '{'
		case c == ']' || c == '}':
			if n := len(s.open); n > 0 {
				s.open, s.inArray = s.open[:n-1], s.inArray[:n-1]
			}
		case c == ',':
			if n := len(s.open); n > 0 && !s.inArray[n-1] {
				s.inKey, s.keyDots = true, 0
			}
		}
		s.i++
	}
	return nil
}

// current is the level keys are read at: the innermost inline table, or the current table.
func (s *depthScan) current() int {
	if n := len(s.open); n > 0 {
		return s.open[n-1]
	}
	return s.table
}

// header reads a [table] or [[array.of.tables]] header: each dotted part is a level, and
// an array of tables adds the array's own level.
func (s *depthScan) header() error {
	s.i++
	level := 2
	if s.i < len(s.data) && s.data[s.i] == '[' {
		level++
		s.i++
	}
	for s.i < len(s.data) && s.data[s.i] != ']' && s.data[s.i] != '\n' {
		switch c := s.data[s.i]; c {
		case '"', '\'':
			s.skipString(c)
			continue
		case '.':
			level++
		}
		if level > MaxDepth {
			return s.fail()
		}
		s.i++
	}
	s.table = level
	if level > MaxDepth {
		return s.fail()
	}
	return nil
}

// skipString moves past a basic or literal string, one-line or multi-line.
func (s *depthScan) skipString(q byte) {
	if s.i+2 < len(s.data) && s.data[s.i+1] == q && s.data[s.i+2] == q {
		s.i += 3
		for s.i < len(s.data) {
			switch {
			case q == '"' && s.data[s.i] == '\\':
				s.i += 2
				continue
			case s.data[s.i] == '\n':
				s.line++
				s.lineStart = s.i + 1
			case s.data[s.i] == q && s.i+2 < len(s.data) && s.data[s.i+1] == q && s.data[s.i+2] == q:
				s.i += 3
				for s.i < len(s.data) && s.data[s.i] == q { // up to two quotes may end the content
					s.i++
				}
				return
			}
			s.i++
		}
		return
	}
	s.i++
	for s.i < len(s.data) && s.data[s.i] != '\n' {
		switch c := s.data[s.i]; {
		case q == '"' && c == '\\':
			s.i += 2
			continue
		case c == q:
			s.i++
			return
		}
		s.i++
	}
}
