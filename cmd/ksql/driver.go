package main

import (
	// ksql's driver: modernc.org/sqlite with sqlite-vec and every ksql
	// function and module registered on each connection.
	"github.com/ksql/ksql/ext"
)

// driverName is the database/sql driver the shell opens.
const driverName = ext.DriverName
