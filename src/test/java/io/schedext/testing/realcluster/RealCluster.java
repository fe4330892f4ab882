package io.schedext.testing.realcluster;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs against a real etcd and kube-apiserver (and, where a test starts one, a
 * real kube-scheduler), started once for the class and stopped after it, failed or not. {@link
 * RealClusterExtension#get()} gives the running {@link ControlPlane}.
 *
 * <p>Where {@link Assets} finds no programs the class is skipped, with one line on standard error
 * saying how to provide them. Put this annotation before {@code @SpringBootTest}: extensions stop
 * in reverse order, so the service under test then closes before the API server it watches goes
 * away.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("real-cluster")
@ExtendWith(RealClusterExtension.class)
public @interface RealCluster {}
