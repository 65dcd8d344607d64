package gen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// PythonFile is the one generated Python module.
const PythonFile = "sdk-python/src/octet_extension/_models.py"

func emitPython(m *ir.Model, out Output) error {
	var b bytes.Buffer
	b.WriteString(header("#", fingerprint(true, m.Limits, m.Errors, pyRuntime, m.Types, m.Methods)))
	b.WriteString(`# ruff: noqa: E501
# Source: schema/*.schema.json, schema/methods.json.
"""Wire limits, error codes, typed models and validators of the octet extension protocol."""

from __future__ import annotations

import json
import math
import re
# typing.TYPE_CHECKING without importing typing (~3 ms of every extension's start): mypy treats
# any name TYPE_CHECKING as true, so only type checkers read the typing imports.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Literal, NotRequired, TypeAlias, TypedDict

`)
	pyLimits(&b, m)
	pyErrors(&b, m)
	pyValidators(&b, m)
	pyTypes(&b, m)
	pyMethods(&b, m)
	out[PythonFile] = b.Bytes()
	return nil
}

// pyDoc writes a comment block, wrapped so ruff's line length (100) holds.
func pyComment(b *bytes.Buffer, indent, text string) {
	for _, l := range wrap(text, 96-len(indent)) {
		fmt.Fprintf(b, "%s# %s\n", indent, l)
	}
}

func wrap(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len(line)+1+len(w) > width {
				lines = append(lines, line)
				line = w
				continue
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		lines = append(lines, line)
	}
	return lines
}

func pyLimits(b *bytes.Buffer, m *ir.Model) {
	b.WriteString("# -- Limits (schema/limits.schema.json) --\n\n")
	for _, l := range m.Limits {
		pyComment(b, "", fmt.Sprintf("%s (%s).", l.Description, l.Unit))
		fmt.Fprintf(b, "%s: Final = %d\n", l.Name, l.Value)
	}
	b.WriteString("\n")
}

func pyErrors(b *bytes.Buffer, m *ir.Model) {
	b.WriteString("# -- Error codes (schema/errors.schema.json) --\n\n")
	for _, e := range m.Errors {
		pyComment(b, "", fmt.Sprintf("%s: %s", e.Name, e.Meaning))
		fmt.Fprintf(b, "CODE_%s: Final = %d\n", upperSnake(e.Name), e.Code)
	}
	for _, e := range m.Errors {
		for _, msg := range e.Messages {
			pyComment(b, "", fmt.Sprintf("message %s (%s, data %s): %s", msg.Name, e.Name, msg.Data, msg.Meaning))
			fmt.Fprintf(b, "MESSAGE_%s: Final = %s\n", upperSnake(msg.Name), pyStr(msg.Template))
		}
	}
	b.WriteString(`

class ErrorInfo:
    """One row of the error registry (a slotted class: a NamedTuple would import typing)."""

    __slots__ = ("category", "code", "data_type", "meaning", "name", "retry_hint", "retryable")

    def __init__(self, code: int, name: str, meaning: str, category: str, retryable: str,
                 retry_hint: str, data_type: str) -> None:
        self.code = code
        self.name = name
        self.meaning = meaning
        self.category = category
        self.retryable = retryable
        self.retry_hint = retry_hint
        self.data_type = data_type

    def __repr__(self) -> str:
        return f"ErrorInfo({self.code}, {self.name!r})"


ERROR_REGISTRY: Final[tuple[ErrorInfo, ...]] = (
`)
	for _, e := range m.Errors {
		fmt.Fprintf(b, "    ErrorInfo(\n        %d,\n        %s,\n", e.Code, pyStr(e.Name))
		pieces := wrapStr(e.Meaning, 84)
		pieces[len(pieces)-1] += ","
		for _, l := range pieces {
			fmt.Fprintf(b, "        %s\n", l)
		}
		fmt.Fprintf(b, "        %s,\n        %s,\n        %s,\n        %s,\n    ),\n", pyStr(e.Category), pyStr(e.Retryable), pyStr(e.RetryHint), pyStr(e.Data))
	}
	b.WriteString(")\n\n")
}

// pyStr quotes s as a Python string literal (JSON-compatible escapes, double quotes).
func pyStr(s string) string { return strconv.Quote(s) }

// wrapStr splits a long string literal into implicitly concatenated pieces.
func wrapStr(s string, width int) []string {
	var out []string
	for len(s) > width {
		cut := strings.LastIndex(s[:width], " ")
		if cut <= 0 {
			cut = width
		}
		out = append(out, pyStr(s[:cut+1]))
		s = s[cut+1:]
	}
	return append(out, pyStr(s))
}
