module github.com/octet-kit/octet

go 1.26.0

require github.com/magefile/mage v1.17.2

require (
	github.com/elastic/go-seccomp-bpf v1.6.0
	github.com/landlock-lsm/go-landlock v0.11.2
	golang.org/x/mod v0.42.0
	golang.org/x/net v0.41.0
)

require kernel.org/pub/linux/libs/security/libcap/psx v1.2.78 // indirect

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/octet-kit/octet/sdk-go v0.0.0-00010101000000-000000000000
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	golang.org/x/sys v0.49.0
	golang.org/x/text v0.26.0
	modernc.org/libc v1.80.1 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
	modernc.org/sqlite v1.62.0
)

replace github.com/octet-kit/octet/sdk-go => ./sdk-go
