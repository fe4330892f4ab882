package io.schedext.testing.realcluster;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.ClassTemplate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.test.context.TestExecutionListeners;
import org.springframework.test.context.TestExecutionListeners.MergeMode;

/**
 * A test class that runs against a real etcd and kube-apiserver (and, where a test starts one, a
 * real kube-scheduler), started for the class and stopped after it, failed or not. The class runs
 * once per set of programs {@link Assets#findAll()} finds (each Kubernetes version named in {@code
 * KUBEBUILDER_ASSETS}), each run reported under the version's name ({@code [v1.34.9]}); {@link
 * RealClusterExtension#get()} gives the running {@link ControlPlane}.
 *
 * <p>Where {@link Assets} finds no programs the class is skipped, with one line on standard error
 * saying how to provide them. Put this annotation before {@code @SpringBootTest}: extensions stop
 * in reverse order, so the service under test then closes before the API server it watches goes
 * away. Each run's Spring context is closed after the run (before its control plane), so that the
 * next run starts a service watching its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("real-cluster")
@ClassTemplate
@ExtendWith(RealClusterExtension.class)
@TestExecutionListeners(
    listeners = RealClusterExtension.SpringContexts.class,
    mergeMode = MergeMode.MERGE_WITH_DEFAULTS)
public @interface RealCluster {}
