// Package e2e holds the mcp module's end-to-end tests: octet-mcp in front of real MCP
// servers (the npm "everything" and "filesystem" servers, a FastMCP server from PyPI and
// a steerable server on the MCP Go SDK), driven through octet-host; octet-mcp-gateway
// driven by the MCP Go SDK client and by MCP Inspector's CLI; and the round trip MCP
// server → octet-mcp → octet host → octet-mcp-gateway → MCP client.
//
// The servers are installed by `go run mage.go mcpServers` (testdata/servers, git-ignored
// node_modules and .venv). Without them the tests skip, unless OCTET_MCP_SERVERS=required
// (mage testMCP sets it), when they fail.
package e2e
