module smsemulator.dev/smsemu

go 1.21
