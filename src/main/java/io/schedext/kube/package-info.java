/**
 * Kubernetes API helpers the plugins share: quantities, label and node selectors, taints and pod
 * requests, mirroring apimachinery and component-helpers. Nothing here knows about the framework.
 */
package io.schedext.kube;
