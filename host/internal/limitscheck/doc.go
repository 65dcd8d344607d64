// Package limitscheck holds only a test: the host core's mirrored limits must equal the
// generated protocol constants.
package limitscheck
