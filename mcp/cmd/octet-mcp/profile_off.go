//go:build !mcpprofile

package main

import "github.com/octet-kit/octet/mcp/bridge"

// profile does nothing outside a -tags mcpprofile build (profile_on.go).
func profile(*bridge.Bridge) {}
