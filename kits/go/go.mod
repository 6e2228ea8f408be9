module smsemu

go 1.21
