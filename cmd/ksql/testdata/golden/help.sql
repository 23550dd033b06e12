.help
.help import
.help .plot
.help vectors
