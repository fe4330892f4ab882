package io.schedext.framework;

/**
 * One device of a resource pool, as dynamic resource allocation names it: the driver, the pool and
 * the device's name in that pool ({@code driver/pool/device}). Immutable.
 *
 * @param driver the driver that publishes the device
 * @param pool the pool it belongs to
 * @param device its name, unique within the pool
 */
public record DeviceId(String driver, String pool, String device) {

  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }
}
