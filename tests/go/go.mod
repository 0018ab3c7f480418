module rxbench/tests/go

go 1.19
