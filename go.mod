module github.com/octet-kit/octet

go 1.26

require github.com/magefile/mage v1.17.2
