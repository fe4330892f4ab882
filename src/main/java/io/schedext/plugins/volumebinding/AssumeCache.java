package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Upstream's scheduler assume cache: per object the latest informer ("api") version and the
 * "latest" version, which Reserve may replace in memory ({@link #assume}) before the API write
 * happens and Unreserve puts back ({@link #restore}). Informer events replace both versions only
 * when they carry a newer resource version, so an assumption survives resyncs. Reads ({@link #get},
 * {@link #list}) see the latest version; binding checks use {@link #getApiObject}. Objects are
 * keyed {@code namespace/name} ({@code name} when cluster-scoped). Thread-safe; stored objects must
 * not be mutated.
 *
 * <p>The informer side comes either from events ({@link #add}, {@link #delete}) or, with a {@link
 * Source}, lazily: every read and assume first offers the source's current object under that key to
 * {@link #add} (or forgets the key when the source no longer has it), and {@link #list} does so for
 * every object. The outcome is the one an informer would have produced had its events arrived just
 * before the call.
 *
 * @param <T> the object kind
 */
public final class AssumeCache<T extends HasMetadata> {

  /**
   * How many key refreshes pass between two sweeps of keys a source that cannot list may have
   * dropped.
   */
  static final int SWEEP_EVERY = 1024;

  /**
   * The informer state a lazily fed cache reads: the current object per key. Implementations are
   * thread-safe.
   *
   * @param <T> the object kind
   */
  public interface Source<T> {

    /** The current object under cache key {@code key}, or null when there is none. */
    T get(String key);

    /**
     * Every current object, or null when the source cannot list (known keys are then refreshed one
     * by one).
     */
    Collection<T> list();
  }

  private record Entry<T>(T latest, T api) {}

  private final String description;
  private final Function<T, String> indexFunc;
  private final Source<T> source;
  private final TreeMap<String, Entry<T>> store = new TreeMap<>();
  private int refreshesSinceSweep;

  /**
   * A cache fed by events, of objects described as {@code description} in errors (e.g. {@code
   * v1.PersistentVolume}), listable by {@code indexFunc} of the latest version (null: list returns
   * everything).
   */
  public AssumeCache(String description, Function<T, String> indexFunc) {
    this(description, indexFunc, null);
  }

  /**
   * Like {@link #AssumeCache(String, Function)}, fed lazily from {@code source} (null: by events).
   */
  public AssumeCache(String description, Function<T, String> indexFunc, Source<T> source) {
    this.description = description;
    this.indexFunc = indexFunc;
    this.source = source;
  }

  /** The key of {@code obj}: {@code namespace/name}, or {@code name} without namespace. */
  public static String keyOf(HasMetadata obj) {
    String ns = obj.getMetadata().getNamespace();
    return ns == null || ns.isEmpty()
        ? obj.getMetadata().getName()
        : ns + "/" + obj.getMetadata().getName();
  }

  /**
   * Informer add or update: stores {@code obj} unless the cache already holds this or a newer
   * version.
   */
  public synchronized void add(T obj) {
    addLocked(obj);
  }

  private void addLocked(T obj) {
    String key = keyOf(obj);
    Entry<T> e = store.get(key);
    if (e != null) {
      if (e.api() == obj || e.latest() == obj) {
        return;
      }
      long newVersion;
      long storedVersion;
      try {
        newVersion = version(key, obj);
        storedVersion = version(key, e.latest());
      } catch (AssumeCacheException ex) {
        return;
      }
      if (newVersion <= storedVersion) {
        return;
      }
    }
    store.put(key, new Entry<>(obj, obj));
  }

  /** Informer delete: forgets the object, assumed or not. */
  public synchronized void delete(T obj) {
    store.remove(keyOf(obj));
  }

  /**
   * The latest version under {@code key}; throws {@link AssumeCacheException} (not found) when
   * unknown.
   */
  public synchronized T get(String key) {
    refresh(key);
    return entry(key).latest();
  }

  /**
   * The informer version under {@code key}; throws {@link AssumeCacheException} (not found) when
   * unknown.
   */
  public synchronized T getApiObject(String key) {
    refresh(key);
    return entry(key).api();
  }

  /**
   * The latest versions whose index value is {@code indexValue} (all objects without an index), by
   * key.
   */
  public synchronized List<T> list(String indexValue) {
    refreshAll();
    List<T> out = new ArrayList<>();
    for (Map.Entry<String, Entry<T>> e : store.entrySet()) {
      T latest = e.getValue().latest();
      if (indexFunc == null || indexFunc.apply(latest).equals(indexValue)) {
        out.add(latest);
      }
    }
    return out;
  }

  /**
   * Replaces the latest version in memory; the object must be known and its resource version not
   * older than the latest one, else {@link AssumeCacheException}.
   */
  public synchronized void assume(T obj) {
    String key = keyOf(obj);
    refresh(key);
    Entry<T> e = entry(key);
    long newVersion = version(key, obj);
    long storedVersion = version(key, e.latest());
    if (newVersion < storedVersion) {
      throw new AssumeCacheException(
          description
              + " \""
              + key
              + "\" is out of sync (stored: "
              + storedVersion
              + ", assume: "
              + newVersion
              + ")",
          false);
    }
    store.put(key, new Entry<>(obj, e.api()));
  }

  /**
   * Drops an assumption: the latest version becomes the informer version again. Unknown keys are
   * ignored.
   */
  public synchronized void restore(String key) {
    Entry<T> e = store.get(key);
    if (e != null && e.latest() != e.api()) {
      store.put(key, new Entry<>(e.api(), e.api()));
    }
  }

  /** Brings {@code key} up to the source's object, as the informer event for it would have. */
  private void refresh(String key) {
    if (source == null) {
      return;
    }
    T current = source.get(key);
    if (current == null) {
      store.remove(key);
    } else {
      addLocked(current);
    }
    if (++refreshesSinceSweep >= SWEEP_EVERY) {
      refreshesSinceSweep = 0;
      refreshAll();
    }
  }

  /** Brings every key up to the source, dropping keys it no longer has. */
  private void refreshAll() {
    if (source == null) {
      return;
    }
    Collection<T> all = source.list();
    if (all == null) {
      for (String key : new ArrayList<>(store.keySet())) {
        T current = source.get(key);
        if (current == null) {
          store.remove(key);
        } else {
          addLocked(current);
        }
      }
      return;
    }
    Set<String> seen = new HashSet<>(all.size() * 2);
    for (T o : all) {
      addLocked(o);
      seen.add(keyOf(o));
    }
    store.keySet().retainAll(seen);
  }

  private Entry<T> entry(String key) {
    Entry<T> e = store.get(key);
    if (e == null) {
      throw new AssumeCacheException("could not find " + description + " \"" + key + "\"", true);
    }
    return e;
  }

  private long version(String key, T obj) {
    String rv = obj.getMetadata().getResourceVersion();
    try {
      return Long.parseLong(rv == null ? "" : rv);
    } catch (NumberFormatException ex) {
      throw new AssumeCacheException(
          "error parsing ResourceVersion \""
              + (rv == null ? "" : rv)
              + "\" for "
              + description
              + " \""
              + key
              + "\": strconv.ParseInt: parsing \""
              + (rv == null ? "" : rv)
              + "\": invalid syntax",
          false);
    }
  }
}
