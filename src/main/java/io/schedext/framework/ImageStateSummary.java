package io.schedext.framework;

/**
 * What the cluster knows of one image on a node: its size and how many nodes have it.
 *
 * @param size the image size in bytes
 * @param numNodes the number of nodes reporting this image name
 */
public record ImageStateSummary(long size, int numNodes) {}
