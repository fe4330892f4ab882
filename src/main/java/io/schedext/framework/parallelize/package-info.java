/**
 * Parallel work over the nodes of one scheduling call, on a bounded pool shared by every call, as
 * upstream's {@code framework/parallelize}: plugins reach it through {@code Handle.parallelizer()},
 * the runtime runs the Filter and Score loops on it.
 */
package io.schedext.framework.parallelize;
