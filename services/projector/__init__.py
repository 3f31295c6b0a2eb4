"""The projector process: folds the shard feeds into views and statistics."""
