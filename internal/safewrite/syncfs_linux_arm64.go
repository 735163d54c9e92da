package safewrite

import "syscall"

const sysSyncfs = syscall.SYS_SYNCFS
