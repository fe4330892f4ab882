package io.schedext.plugins.dynamicresources;

/**
 * The allocator cannot decide because its input is broken (a selector that does not compile or
 * fails at runtime, a missing class, an invalid pool...): upstream's Allocate error, whose message
 * this carries character for character. The plugin turns it into an Error status.
 */
final class AllocationException extends RuntimeException {

  AllocationException(String message) {
    super(message, null, false, false);
  }
}
