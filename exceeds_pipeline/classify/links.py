"""placeholder"""
def commit_links(commits):
    raise NotImplementedError
