package rff

import (
	"container/list"
	"math"
	"sync"
)

// DefaultCacheLimit is the initial bound on the bytes of cached maps.
const DefaultCacheLimit = 256 << 20

type cacheKey struct {
	kind  Kind
	sigma uint64 // bits, so that every σ is its own key
	inDim int
	dim   int
	seed  uint64
}

// entry is one map being built or built. done is closed once m is set;
// elem is non-nil while the entry is in the LRU list (built and counted).
type entry struct {
	key  cacheKey
	m    *Map
	done chan struct{}
	elem *list.Element
}

var cache = struct {
	sync.Mutex
	limit   int64
	used    int64
	entries map[cacheKey]*entry
	lru     list.List // of *entry, most recent first
	stats   CacheStats
}{limit: DefaultCacheLimit, entries: map[cacheKey]*entry{}}

// CacheStats describes the map cache.
type CacheStats struct {
	Entries int   // maps held
	Bytes   int64 // their frequencies' memory
	Limit   int64 // the bound on Bytes
	Hits    int64 // Get calls answered from the cache (or from a build in progress)
	Builds  int64 // maps drawn
}

// Stats returns the cache's current figures.
func Stats() CacheStats {
	cache.Lock()
	defer cache.Unlock()
	s := cache.stats
	s.Entries, s.Bytes, s.Limit = cache.lru.Len(), cache.used, cache.limit
	return s
}

// SetCacheLimit bounds the memory of cached maps to bytes (≥ 0), evicting
// the least recently used maps at once if needed. A map larger than the
// limit is kept alone (everything else is evicted), so that a query over
// rows of one big map does not redraw it per row; the cache then holds
// max(limit, that map) bytes. Callers bound single maps (see MapBytes).
func SetCacheLimit(bytes int64) {
	cache.Lock()
	defer cache.Unlock()
	cache.limit = max(bytes, 0)
	evictLocked()
}

// Get returns the map for (kind, σ, inDim, dim, seed), drawing its
// frequencies on first use. Concurrent calls for one key draw once.
func Get(kind Kind, sigma float64, inDim, dim int, seed uint64) (*Map, error) {
	if err := checkArgs(kind, sigma, inDim, dim); err != nil {
		return nil, err
	}
	key := cacheKey{kind, math.Float64bits(sigma), inDim, dim, seed}
	cache.Lock()
	if e, ok := cache.entries[key]; ok {
		cache.stats.Hits++
		if e.elem != nil {
			cache.lru.MoveToFront(e.elem)
		}
		cache.Unlock()
		<-e.done
		return e.m, nil
	}
	e := &entry{key: key, done: make(chan struct{})}
	cache.entries[key] = e
	cache.stats.Builds++
	cache.Unlock()

	// build cannot fail or panic on checked arguments, so e.done is always closed.
	e.m = build(kind, sigma, inDim, dim, seed)
	close(e.done)

	cache.Lock()
	e.elem = cache.lru.PushFront(e)
	cache.used += e.m.Bytes()
	evictLocked()
	cache.Unlock()
	return e.m, nil
}

// evictLocked drops least recently used maps until the cache fits or
// holds only the most recent one.
func evictLocked() {
	for cache.used > cache.limit && cache.lru.Len() > 1 {
		e := cache.lru.Remove(cache.lru.Back()).(*entry)
		e.elem = nil
		cache.used -= e.m.Bytes()
		delete(cache.entries, e.key)
	}
}
