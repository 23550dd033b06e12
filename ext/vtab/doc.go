// Package vtab holds ksql's virtual table modules (gram, kpca, kernel_map,
// kpca_eigen), written once against the driver-neutral host.Module and
// registered with host.RegisterModule from init.
package vtab
