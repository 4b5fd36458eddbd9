module github.com/onair-live/onair/sdks/go

go 1.19
