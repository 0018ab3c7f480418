module rxbench/tests/go

go 1.19

// the runner's fqdn rewrite (engines/runners/go/fqdnop), from this tree
require rxbench/runners/go v0.0.0

replace rxbench/runners/go => ../../engines/runners/go
