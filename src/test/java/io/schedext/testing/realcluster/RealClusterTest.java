package io.schedext.testing.realcluster;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;

/**
 * A test of a {@link RealCluster} class, in place of {@code @Test}: it runs once per run of its
 * class and is reported under the Kubernetes version it ran on ({@code
 * aBurstFillsTheNode()[v1.34.9]}), so that a report of the suite shows every test on every version.
 * A parameterized test of such a class names its invocations with {@link
 * RealClusterExtension#version()} instead (see {@link OnEachVersion}).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
public @interface RealClusterTest {}
