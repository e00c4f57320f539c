//! A hash map keyed by one 64-bit word (a packed position), for the tables that grow with the
//! positions a learner meets: open addressing with linear probing from a multiplicative hash, the
//! key and its value side by side, so a lookup usually reads one cache line (a general hash map
//! reads two: its control bytes, then its entries) — these tables are far bigger than any cache.

/// The key that marks an empty slot; an entry under it is kept beside the slots.
const EMPTY: u64 = u64::MAX;

/// A map from 64-bit words to small values.
#[derive(Clone, Debug)]
pub struct WordMap<V: Copy + Default> {
    slots: Vec<(u64, V)>,
    len: usize,
    /// The value under the key [`EMPTY`], if any.
    last: Option<V>,
}

impl<V: Copy + Default> Default for WordMap<V> {
    fn default() -> Self {
        WordMap {
            slots: Vec::new(),
            len: 0,
            last: None,
        }
    }
}

impl<V: Copy + Default> WordMap<V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.len + usize::from(self.last.is_some())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes a slot takes; the table keeps between 4/3 and 8/3 slots an entry.
    pub fn slot_bytes() -> usize {
        std::mem::size_of::<(u64, V)>()
    }

    /// The slot to try first for `key`.
    #[inline]
    fn home(&self, key: u64) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<V> {
        if key == EMPTY {
            return self.last;
        }
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v) = self.slots[i];
            if k == key {
                return Some(v);
            }
            if k == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Sets `key`'s value; whether the key is new.
    pub fn insert(&mut self, key: u64, value: V) -> bool {
        if key == EMPTY {
            return self.last.replace(value).is_none();
        }
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let new = self.put(key, value);
        self.len += usize::from(new);
        new
    }

    fn put(&mut self, key: u64, value: V) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let k = self.slots[i].0;
            if k == key || k == EMPTY {
                self.slots[i] = (key, value);
                return k == EMPTY;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![(EMPTY, V::default()); size]);
        for (k, v) in old.into_iter().filter(|&(k, _)| k != EMPTY) {
            self.put(k, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WordMap;

    /// Against the standard map, through growth, replaced values and the reserved key.
    #[test]
    fn agrees_with_a_hash_map() {
        let mut ours = WordMap::new();
        let mut std = std::collections::HashMap::new();
        let mut x = 12345u64;
        for i in 0..20_000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Keys from a small range repeat (replacing values); some are the reserved word.
            let key = match i % 7 {
                0 => u64::MAX,
                1 => x % 500,
                _ => x,
            };
            assert_eq!(ours.insert(key, i), std.insert(key, i).is_none());
            assert_eq!(ours.len(), std.len());
        }
        for (&k, &v) in &std {
            assert_eq!(ours.get(k), Some(v));
        }
        assert_eq!(ours.get(7_777_777), std.get(&7_777_777).copied());
        assert!(WordMap::<u32>::new().get(u64::MAX).is_none());
    }
}
