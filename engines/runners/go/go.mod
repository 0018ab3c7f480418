module rxbench/runners/go

go 1.19
