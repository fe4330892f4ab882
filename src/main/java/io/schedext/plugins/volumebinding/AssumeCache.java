package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Upstream's scheduler assume cache: per object the latest informer ("api") version and the "latest" version, which
 * Reserve may replace in memory ({@link #assume}) before the API write happens and Unreserve puts back
 * ({@link #restore}). Informer events replace both versions only when they carry a newer resource version, so an
 * assumption survives resyncs. Reads ({@link #get}, {@link #list}) see the latest version; binding checks use
 * {@link #getApiObject}. Objects are keyed {@code namespace/name} ({@code name} when cluster-scoped). Thread-safe;
 * stored objects must not be mutated.
 *
 * @param <T> the object kind
 */
public final class AssumeCache<T extends HasMetadata> {

  private record Entry<T>(T latest, T api) {}

  private final String description;
  private final Function<T, String> indexFunc;
  private final TreeMap<String, Entry<T>> store = new TreeMap<>();

  /**
   * A cache of objects described as {@code description} in errors (e.g. {@code v1.PersistentVolume}), listable by
   * {@code indexFunc} of the latest version (null: list returns everything).
   */
  public AssumeCache(String description, Function<T, String> indexFunc) {
    this.description = description;
    this.indexFunc = indexFunc;
  }

  /** The key of {@code obj}: {@code namespace/name}, or {@code name} without namespace. */
  public static String keyOf(HasMetadata obj) {
    String ns = obj.getMetadata().getNamespace();
    return ns == null || ns.isEmpty() ? obj.getMetadata().getName() : ns + "/" + obj.getMetadata().getName();
  }

  /** Informer add or update: stores {@code obj} unless the cache already holds this or a newer version. */
  public synchronized void add(T obj) {
    String key = keyOf(obj);
    Entry<T> e = store.get(key);
    if (e != null) {
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

  /** The latest version under {@code key}; throws {@link AssumeCacheException} (not found) when unknown. */
  public synchronized T get(String key) {
    return entry(key).latest();
  }

  /** The informer version under {@code key}; throws {@link AssumeCacheException} (not found) when unknown. */
  public synchronized T getApiObject(String key) {
    return entry(key).api();
  }

  /** The latest versions whose index value is {@code indexValue} (all objects without an index), by key. */
  public synchronized List<T> list(String indexValue) {
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
   * Replaces the latest version in memory; the object must be known and its resource version not older than the
   * latest one, else {@link AssumeCacheException}.
   */
  public synchronized void assume(T obj) {
    String key = keyOf(obj);
    Entry<T> e = entry(key);
    long newVersion = version(key, obj);
    long storedVersion = version(key, e.latest());
    if (newVersion < storedVersion) {
      throw new AssumeCacheException(description + " \"" + key + "\" is out of sync (stored: " + storedVersion
          + ", assume: " + newVersion + ")", false);
    }
    store.put(key, new Entry<>(obj, e.api()));
  }

  /** Drops an assumption: the latest version becomes the informer version again. Unknown keys are ignored. */
  public synchronized void restore(String key) {
    Entry<T> e = store.get(key);
    if (e != null && e.latest() != e.api()) {
      store.put(key, new Entry<>(e.api(), e.api()));
    }
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
      throw new AssumeCacheException("error parsing ResourceVersion \"" + (rv == null ? "" : rv) + "\" for "
          + description + " \"" + key + "\": strconv.ParseInt: parsing \"" + (rv == null ? "" : rv)
          + "\": invalid syntax", false);
    }
  }
}
