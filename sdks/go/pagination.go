package onair

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
)

// ListOptions pages a list call. The zero value asks for the first page at the server's default size (50).
type ListOptions struct {
	// Limit is the number of items per page, 1 to 100; zero leaves it to the server.
	Limit int
	// Cursor is the NextCursor of the previous page: the page starts after it.
	Cursor string
}

func (o ListOptions) query() url.Values {
	q := url.Values{}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	return q
}

// Iterator walks every item of a list, page after page, following nextCursor until it is null. It fetches a page
// only when the previous one is used up:
//
//	it := client.Channels.ListAll(ctx, onair.ListOptions{Limit: 100})
//	for it.Next() {
//		channel := it.Value()
//		…
//	}
//	if err := it.Err(); err != nil { … }
//
// An Iterator is not safe for concurrent use.
type Iterator[T any] struct {
	ctx    context.Context
	fetch  func(ctx context.Context, cursor string) ([]T, *string, error)
	cursor string
	page   []T
	index  int
	value  T
	done   bool
	stop   error // an error to report once the current page is used up
	err    error
}

// newIterator starts at cursor ("" for the first page); fetch gets one page and its nextCursor.
func newIterator[T any](ctx context.Context, cursor string, fetch func(ctx context.Context, cursor string) ([]T, *string, error)) *Iterator[T] {
	return &Iterator[T]{ctx: ctx, fetch: fetch, cursor: cursor}
}

// Next moves to the next item, fetching the next page when needed. It returns false at the end of the list or on
// an error (see Err).
func (it *Iterator[T]) Next() bool {
	for {
		if it.err != nil {
			return false
		}
		if it.index < len(it.page) {
			it.value = it.page[it.index]
			it.index++
			return true
		}
		if it.done {
			it.err = it.stop
			return false
		}
		// A page may be empty while nextCursor is set (filtered events): keep following it.
		data, next, err := it.fetch(it.ctx, it.cursor)
		if err != nil {
			it.err = err
			return false
		}
		it.page, it.index = data, 0
		switch {
		case next == nil || *next == "":
			it.done = true
		case *next == it.cursor:
			it.done = true
			it.stop = fmt.Errorf("onair: the server answered the cursor %q it was given as the next one; stopping so the list is not read forever", *next)
		default:
			it.cursor = *next
		}
	}
}

// Value is the current item, valid after Next returned true.
func (it *Iterator[T]) Value() T { return it.value }

// Err is the error that stopped the iteration, or nil once it reached the end of the list.
func (it *Iterator[T]) Err() error { return it.err }
