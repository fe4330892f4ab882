package io.schedext.kube;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link ObjectReader} per type for a mapper, built on first use: a reader resolves its type
 * once, where {@code mapper.readValue(parser, type)} and {@code mapper.readerFor(type)} resolve it
 * on every call (request bodies and watch events decode the same few types thousands of times).
 * Thread-safe, as readers are.
 */
public final class JsonReaders {

  private final ObjectMapper mapper;
  private final ConcurrentHashMap<Class<?>, ObjectReader> readers = new ConcurrentHashMap<>();

  /** Readers of {@code mapper}, configured as it is now. */
  public JsonReaders(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The reader of {@code type}. */
  public ObjectReader of(Class<?> type) {
    ObjectReader r = readers.get(type);
    return r != null ? r : readers.computeIfAbsent(type, mapper::readerFor);
  }
}
