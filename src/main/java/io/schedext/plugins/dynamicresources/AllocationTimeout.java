package io.schedext.plugins.dynamicresources;

/** The search ran past DynamicResources' {@code filterTimeout} on one node. */
final class AllocationTimeout extends RuntimeException {

  AllocationTimeout() {
    super("filter operation aborted: context deadline exceeded", null, false, false);
  }
}
