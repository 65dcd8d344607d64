package octet

// Version is the kit's release version, the one in the repository's VERSION file
// (stamped here by `go run mage.go setVersion V`; a host test fails when they differ).
const Version = "0.8.0"
