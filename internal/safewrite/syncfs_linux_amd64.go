package safewrite

// sysSyncfs is syncfs(2)'s number (not in package syscall for amd64).
const sysSyncfs = 306
